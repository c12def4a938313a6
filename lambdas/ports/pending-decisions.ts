/** Which packages wait for a user's decision (approval, signature, delivery approval). */
export interface PendingDecisions {
  /** names of the packages that still wait for a decision of this user, sorted */
  packagesWaitingFor(userId: string): Promise<string[]>;
}
