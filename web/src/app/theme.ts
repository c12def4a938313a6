import { createTheme } from '@aws-amplify/ui-react';

/** A colour scale: its shades 10, 20, 40, 60, 80, 90 and 100, lightest first. */
function scale(shades: readonly [string, string, string, string, string, string, string]) {
  const steps = [10, 20, 40, 60, 80, 90, 100] as const;
  return Object.fromEntries(steps.map((step, i) => [step, { value: shades[i] as string }]));
}

/**
 * The portal's own theme: sober navy on white, body text and borders at WCAG AA contrast or better,
 * system fonts (nothing fetched from elsewhere; the CSP allows none).
 */
export const theme = createTheme({
  name: 'firmware-release-portal',
  tokens: {
    colors: {
      primary: scale(['#eef3f9', '#d7e3f1', '#9fb9d8', '#3d6ea8', '#0b4a8b', '#083a6e', '#052a52']),
      neutral: scale(['#f7f8fa', '#eef0f3', '#d9dde3', '#6b7480', '#4a525c', '#2c333b', '#141a21']),
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
