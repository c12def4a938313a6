import { Heading, Tabs } from '@aws-amplify/ui-react';
import type { ResourceType } from '@shared/api/contracts/resources';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { UploadForm } from './upload-form';

/** Spec §2.11 /upload: Patch and Model sub-tabs; the form starts afresh on every switch. */
export function UploadPage() {
  const [type, setType] = useState<ResourceType>('PATCH');
  return (
    <section className="frp-card" aria-labelledby="upload-title">
      <Heading level={1} id="upload-title" className="frp-page-title">
        Upload a resource
      </Heading>
      <Tabs.Container value={type} onValueChange={(value) => setType(value as ResourceType)}>
        <Tabs.List aria-label="Resource type">
          <Tabs.Item value="PATCH">{MSG.tabPatch}</Tabs.Item>
          <Tabs.Item value="MODEL">{MSG.tabModel}</Tabs.Item>
        </Tabs.List>
        <Tabs.Panel value="PATCH" paddingTop="1.25rem">
          {type === 'PATCH' ? <UploadForm key="PATCH" type="PATCH" /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="MODEL" paddingTop="1.25rem">
          {type === 'MODEL' ? <UploadForm key="MODEL" type="MODEL" /> : null}
        </Tabs.Panel>
      </Tabs.Container>
    </section>
  );
}
