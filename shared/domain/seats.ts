/**
 * Which place in a package a person holds: a chosen approver, the signer, a chosen delivery approver
 * (decision 351). Its own module without imports, so the API contracts build their schema from it.
 */
export const SEATS = ['approver', 'signer', 'deliveryApprover'] as const;
export type Seat = (typeof SEATS)[number];

/** The place by its name, for dialogs and mails. */
export const SEAT_LABELS: Readonly<Record<Seat, string>> = {
  approver: 'approver',
  signer: 'signer',
  deliveryApprover: 'delivery approver',
};
export const seatLabel = (seat: Seat): string => SEAT_LABELS[seat];
