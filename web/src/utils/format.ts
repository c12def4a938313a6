import type { ResourceType, Stage } from '@shared/api/contracts/resources';
import { MSG } from '@shared/messages';

/** Stage codes as people read them (spec §9: Dev and Release). */
export function stageLabel(stage: Stage): string {
  return stage === 'RELEASE' ? MSG.stageRelease : MSG.stageDev;
}

/** Resource types as people read them (spec §9: Patch and Model). */
export function resourceTypeLabel(type: ResourceType): string {
  return type === 'MODEL' ? MSG.tabModel : MSG.tabPatch;
}

/** Bytes as megabytes (spec §5: bytes divided by 1,000,000). */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 100_000 ? 3 : 1)} MB`;
}
