import { Tabs } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import './stage-tabs.css';

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
  /** `count`: how many rows wait under the tab (the approval and signing lists), shown beside the label */
  tabs: readonly { value: V; label: string; count?: number }[];
  children: ReactNode;
}) {
  return (
    <Tabs.Container value={value} onValueChange={(v) => onChange(v as V)}>
      <Tabs.List aria-label="Stage">
        {tabs.map((t) => (
          <Tabs.Item key={t.value} value={t.value}>
            {t.label}
            {t.count !== undefined ? (
              <>
                {' '}
                <span className={`frp-tab-count${t.count > 0 ? ' frp-tab-count--work' : ''}`}>{t.count}</span>
              </>
            ) : null}
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
