/**
 * Stored items by key that hand out copies, as a table does: changing an item that was read changes
 * nothing stored. The memory adapters keep their items in these.
 */
export class ItemMap<T extends object> {
  private readonly items = new Map<string, T>();

  has(key: string): boolean {
    return this.items.has(key);
  }

  /** A copy of the item, or null. */
  get(key: string): T | null {
    const item = this.items.get(key);
    return item ? { ...item } : null;
  }

  /** The stored item itself, for a conditional change in place. */
  stored(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Stores a new item; refused, as a Put conditional on a new key is, when the key is taken. */
  putNew(key: string, item: T): void {
    if (this.items.has(key)) throw new Error('conditional check failed: the key is taken');
    this.items.set(key, { ...item });
  }

  set(key: string, item: T): void {
    this.items.set(key, { ...item });
  }

  delete(key: string): void {
    this.items.delete(key);
  }

  /** Copies of every item. */
  all(): T[] {
    return [...this.items.values()].map((i) => ({ ...i }));
  }
}
