/**
 * the default name of a new package and a free one when it is taken. Spec §2.8: the name is the
 * resource name plus upload time (patch), or the model name plus version. A package made after a rejection
 * would clash with the rejected one's name: `freeName` appends `_2`, `_3`, … (names compare case-blind,
 * as the server claims them).
 */
export function defaultPackageName(resource: {
  resourceType: string;
  name: string;
  uploadTime: string;
  modelName?: string;
  modelVersion?: string;
}): string {
  if (resource.resourceType === 'MODEL')
    return `${resource.modelName ?? resource.name}_${resource.modelVersion ?? ''}`.replace(/_$/, '');
  return `${resource.name}_${resource.uploadTime}`;
}

/** `base`, or `base_N` with the smallest N ≥ 2 that no name of `taken` holds. */
export function freeName(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}_${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
