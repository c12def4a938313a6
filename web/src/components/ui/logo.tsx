interface LogoProps {
  size?: number;
  /** 'light' for the dark header, 'dark' on white */
  tone?: 'light' | 'dark';
  title?: string;
}

/** The portal's mark: a shield around a chip with a check (drawn inline: nothing to fetch). */
export function Logo({ size = 36, tone = 'light', title }: LogoProps) {
  const stroke = tone === 'light' ? '#ffffff' : '#052a52';
  const accent = tone === 'light' ? '#7fc4ff' : '#0b4a8b';
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 48 48"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      focusable="false"
    >
      <path
        d="M24 3 41 9v13c0 11-7.4 19.6-17 23C14.4 41.6 7 33 7 22V9z"
        fill="none"
        stroke={stroke}
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <rect x="15" y="15" width="18" height="18" rx="2.5" fill="none" stroke={accent} strokeWidth="2.5" />
      <path d="M19 11v4M24 11v4M29 11v4M19 33v4M24 33v4M29 33v4" stroke={accent} strokeWidth="2" />
      <path
        d="m19.5 24.5 3.2 3.2 6-6.4"
        fill="none"
        stroke={stroke}
        strokeWidth="2.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
