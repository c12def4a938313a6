import { ResourceSelectionPage } from './resource-selection-page';

/** Spec §2.7 /patches. */
export function PatchesPage() {
  return <ResourceSelectionPage type="PATCH" />;
}

/** Spec §2.7 /models. */
export function ModelsPage() {
  return <ResourceSelectionPage type="MODEL" />;
}
