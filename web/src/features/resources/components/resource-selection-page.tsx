import { Button, Flex, Heading, ToggleButton, ToggleButtonGroup } from '@aws-amplify/ui-react';
import type { Resource, ResourceType, Stage } from '@shared/api/contracts/resources';
import { RESOURCE_LIST } from '@shared/domain/list-columns';
import { UPLOADER_ROLES } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { type Column, DataTable } from '@/components/ui/data-table/data-table';
import { StageTabs } from '@/components/ui/data-table/stage-tabs';
import { paths } from '@/config/paths';
import { useServerView } from '@/hooks/use-server-view';
import { session, useSession } from '@/lib/session/session-store';
import { getResourceView } from '../api/get-resources';

/** the build provenance and SBOM attached to the resource (packages made from it pin them). */
export function buildText(r: Resource): string {
  const parts = [
    r.provenance ? `commit ${r.provenance.commit.slice(0, 12)}` : '',
    r.sbom ? `SBOM ${r.sbom.componentCount.toLocaleString('en-US')} components` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : '—';
}
const BUILD_COLUMN: Column<Resource> = { id: 'build', header: 'Build', cell: buildText };

const PATCH_COLUMNS: readonly Column<Resource>[] = [
  { id: 'name', header: 'Resource name', cell: (r) => r.name, sortValue: (r) => r.name },
  { id: 'uploadTime', header: 'Upload time', cell: (r) => r.uploadTime, sortValue: (r) => r.uploadTime },
  {
    id: 'uploadedBy',
    header: 'Uploaded by',
    cell: (r) => r.uploadedBy?.name,
    sortValue: (r) => r.uploadedBy?.name,
  },
  BUILD_COLUMN,
];

const MODEL_COLUMNS: readonly Column<Resource>[] = [
  { id: 'name', header: 'Resource name', cell: (r) => r.name, sortValue: (r) => r.name },
  { id: 'modelName', header: 'Model name', cell: (r) => r.modelName, sortValue: (r) => r.modelName },
  { id: 'modelVersion', header: 'Version', cell: (r) => r.modelVersion, sortValue: (r) => r.modelVersion },
  BUILD_COLUMN,
];

// spec §5: patches and models are searched by name and upload time (by the server: decision 221)
const searchFields = RESOURCE_LIST.search;

/**
 * Spec §2.7 /patches and /models: Dev and Release tabs, a Patch/Model switch, single selection, and
 * 'Create Package' to /packages/create with the stage's title.
 */
export function ResourceSelectionPage({ type }: { type: ResourceType }) {
  const navigate = useNavigate();
  const [stage, setStage] = useState<Stage>('DEV');
  const [selected, setSelected] = useState<string[]>([]);
  // one page at a time, searched, sorted and paged by the server (decision 221)
  const list = useServerView((view, signal) => getResourceView(type, stage, view, signal), [type, stage]);
  const rows = list.current?.rows ?? [];
  const chosen = selected[0] ? list.seen.get(selected[0]) : undefined;
  const role = useSession().user?.userRole;
  const canUpload = role ? UPLOADER_ROLES.includes(role) : false;
  const what = `${stage === 'DEV' ? 'dev' : 'release'} ${type === 'PATCH' ? 'patches' : 'models'}`;

  const createPackage = () => {
    if (!chosen) return;
    const release = stage === 'RELEASE';
    session.update({
      resource: chosen,
      currentPackage: null,
      flowPurpose: release ? 'release' : 'dev',
      subHeader: release ? MSG.generateReleasePackageTitle : MSG.generateDevPackageTitle,
    });
    navigate(paths.packages.create);
  };

  return (
    <section className="frp-card" aria-labelledby="resource-title">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="1rem" marginBottom="1rem">
        <Heading level={1} id="resource-title" className="frp-page-title" margin="0">
          {type === 'PATCH' ? 'Select a patch' : 'Select a model'}
        </Heading>
        <ToggleButtonGroup
          value={type}
          isExclusive
          isSelectionRequired
          size="small"
          aria-label="Resource type"
          onChange={(value) => navigate(value === 'MODEL' ? paths.models : paths.patches)}
        >
          <ToggleButton value="PATCH">{MSG.tabPatch}</ToggleButton>
          <ToggleButton value="MODEL">{MSG.tabModel}</ToggleButton>
        </ToggleButtonGroup>
      </Flex>
      <StageTabs
        value={stage}
        onChange={(value) => {
          setStage(value);
          setSelected([]);
          list.reset();
        }}
        tabs={[
          { value: 'DEV', label: MSG.stageDev },
          { value: 'RELEASE', label: MSG.stageRelease },
        ]}
      >
        <DataTable
          key={`${type}-${stage}`}
          label={`${stage === 'DEV' ? 'Dev' : 'Release'} ${type === 'PATCH' ? 'patches' : 'models'}`}
          rows={rows}
          columns={type === 'PATCH' ? PATCH_COLUMNS : MODEL_COLUMNS}
          rowKey={(r) => r.id}
          searchFields={searchFields}
          loading={list.query.loading}
          server={{ total: list.current?.total ?? 0, onViewChange: list.onViewChange }}
          emptyMessage={`No ${what} yet.`}
          selection={{ mode: 'single', selected, onChange: setSelected, rowLabel: (r) => r.name }}
          actions={
            <Button variation="primary" isDisabled={!chosen} onClick={createPackage}>
              {MSG.createPackage}
            </Button>
          }
        />
        {/* an empty list points to where patches and models come from */}
        {!list.query.loading &&
        !list.query.failed &&
        list.current?.total === 0 &&
        !list.view.search.trim() ? (
          <p className="frp-muted" data-testid="empty-resources">
            {canUpload ? (
              <>
                {`No ${what} are uploaded yet. `}
                <Link to={paths.upload}>Upload a {type === 'PATCH' ? 'patch' : 'model'}</Link>
                {' first, then create a package from it here.'}
              </>
            ) : (
              `No ${what} are uploaded yet. A design engineer or a release engineer uploads them (Upload); then they show here.`
            )}
          </p>
        ) : null}
      </StageTabs>
    </section>
  );
}
