import { Tabs } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';

/**
 * Stage tabs over one table (the package lists, the resource selection): each tab's panel holds the
 * table (`children`) only while that tab is open.
 */
export function StageTabs<V extends string>({
  value,
  onChange,
  tabs,
  children,
}: {
  value: V;
  onChange: (value: V) => void;
  tabs: readonly { value: V; label: string }[];
  children: ReactNode;
}) {
  return (
    <Tabs.Container value={value} onValueChange={(v) => onChange(v as V)}>
      <Tabs.List aria-label="Stage">
        {tabs.map((t) => (
          <Tabs.Item key={t.value} value={t.value}>
            {t.label}
          </Tabs.Item>
        ))}
      </Tabs.List>
      {tabs.map((t) => (
        <Tabs.Panel key={t.value} value={t.value} paddingTop="1rem">
          {t.value === value ? children : null}
        </Tabs.Panel>
      ))}
    </Tabs.Container>
  );
}
