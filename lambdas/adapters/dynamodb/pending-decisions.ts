import { type DecisionState, waitsForDecisionOf } from '../../../shared/domain/pending-decision';
import type { PendingDecisions } from '../../ports/pending-decisions';
import { queryKind } from './transact';

/**
 * Packages waiting for a user, from the packages table: one Query of the package kind filtered on the
 * server to waiting packages that name the user, projecting only the user's own entries. It reads the
 * package items themselves (not the task index), so a signer named at notify counts before the signing
 * task exists. Used only by the admin deletion of users, a rare call.
 */
export class DynamoPendingDecisions implements PendingDecisions {
  constructor(private readonly table: () => string) {}

  async packagesWaitingFor(userId: string): Promise<string[]> {
    const items = await queryKind(this.table(), 'PACKAGE', {
      FilterExpression:
        '#st IN (:pa, :as, :dp) AND (attribute_exists(approvers.#u) OR signer.id = :u OR attribute_exists(deliveryApprovers.#u))',
      ProjectionExpression: '#n, #st, approvers.#u, signer, deliveryApprovers.#u',
      ExpressionAttributeNames: { '#n': 'name', '#st': 'status', '#u': userId },
      ExpressionAttributeValues: {
        ':pa': 'PENDING_APPROVAL',
        ':as': 'AWAITING_SIGNATURE',
        ':dp': 'DELIVERY_PENDING',
        ':u': userId,
      },
    });
    return items
      .filter((i) => waitsForDecisionOf(i as unknown as DecisionState, userId))
      .map((i) => String(i.name))
      .sort();
  }
}
