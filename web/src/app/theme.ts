import { createTheme } from '@aws-amplify/ui-react';

/**
 * The portal's own theme: sober navy on white, body text and borders at WCAG AA contrast or better,
 * system fonts (nothing fetched from elsewhere; the CSP allows none).
 */
export const theme = createTheme({
  name: 'firmware-release-portal',
  tokens: {
    colors: {
      primary: {
        10: { value: '#eef3f9' },
        20: { value: '#d7e3f1' },
        40: { value: '#9fb9d8' },
        60: { value: '#3d6ea8' },
        80: { value: '#0b4a8b' },
        90: { value: '#083a6e' },
        100: { value: '#052a52' },
      },
      neutral: {
        10: { value: '#f7f8fa' },
        20: { value: '#eef0f3' },
        40: { value: '#d9dde3' },
        60: { value: '#6b7480' },
        80: { value: '#4a525c' },
        90: { value: '#2c333b' },
        100: { value: '#141a21' },
      },
      font: {
        // secondary text still reads at 7:1 on white
        secondary: { value: '#4a525c' },
        tertiary: { value: '#5b636d' },
      },
    },
    fonts: {
      default: {
        variable: {
          value:
            "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
        },
        static: {
          value:
            "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
        },
      },
    },
    radii: {
      small: { value: '4px' },
      medium: { value: '6px' },
      large: { value: '8px' },
    },
    components: {
      fieldcontrol: {
        borderColor: { value: '{colors.neutral.60}' },
        _focus: { boxShadow: { value: '0 0 0 2px {colors.primary.80}' } },
      },
      button: {
        primary: {
          backgroundColor: { value: '{colors.primary.80}' },
          _hover: { backgroundColor: { value: '{colors.primary.90}' } },
          _focus: { backgroundColor: { value: '{colors.primary.90}' } },
          _active: { backgroundColor: { value: '{colors.primary.100}' } },
        },
      },
      tabs: {
        item: {
          color: { value: '{colors.neutral.80}' },
          _active: { color: { value: '{colors.primary.80}' }, borderColor: { value: '{colors.primary.80}' } },
        },
      },
      table: {
        header: { color: { value: '{colors.neutral.100}' } },
      },
    },
  },
});
