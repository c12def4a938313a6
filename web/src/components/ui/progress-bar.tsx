import { Loader, Text } from '@aws-amplify/ui-react';

/** Upload progress (spec §2.11 loader while uploading; DESIGN §3: a progress bar for large files). */
export function ProgressBar({ percent, label, detail }: { percent: number; label: string; detail?: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <Text fontSize="0.875rem" marginBottom="0.25rem">
        {label}: {value}%
      </Text>
      <Loader variation="linear" isDeterminate percentage={value} isPercentageTextHidden aria-hidden="true" />
      {detail ? (
        <Text fontSize="0.8125rem" color="font.secondary" marginTop="0.25rem">
          {detail}
        </Text>
      ) : null}
    </div>
  );
}
