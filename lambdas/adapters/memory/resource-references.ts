import type { ResourceReference, ResourceReferences } from '../../ports/resource-repository';

/** Which packages use a resource, as the test (or the in-browser mock) that owns the packages says. */
export class MemoryResourceReferences implements ResourceReferences {
  private readonly uses = new Map<string, ResourceReference[]>();

  /** The package `ref` now uses resource `resourceId`. */
  use(resourceId: string, ref: ResourceReference): void {
    this.uses.set(resourceId, [...(this.uses.get(resourceId) ?? []), ref]);
  }

  async packagesUsing(resourceId: string): Promise<ResourceReference[]> {
    return [...(this.uses.get(resourceId) ?? [])];
  }
}
