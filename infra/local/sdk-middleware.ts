/**
 * The part of an AWS SDK v3 client's middleware stack the local stack's shims use (the IAM check, the S3
 * multipart shim): one middleware at the `initialize` step, which sees the command's name and input.
 * The clients' own stack type is generic over every command; the shims cast to this narrow view.
 */
export type InitializeHandler = (args: { input: object }) => Promise<unknown>;

export interface InitializeStack {
  add: (
    mw: (next: InitializeHandler, context: { commandName?: string }) => InitializeHandler,
    options: { step: 'initialize'; name: string; priority?: 'low' },
  ) => void;
}
