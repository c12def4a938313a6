/**
 * Every text a user sees, word for word from the product spec (§2, §5, §8), plus the server's own
 * error texts. Web and API import from here so a wording lives in one place.
 */
export const MSG = {
  // §2 / §8 success popups
  registered: 'Registered successfully.',
  resetMailSent: 'Email with new password was sent to this address',
  settingsSaved: 'Successfully updated your data',
  uploaded: 'Uploaded successfully.',
  deleted: 'Deleted successfully.',
  /** not the spec's: the 202 of a deletion that takes two admins (decision 336) */
  deletionProposed: 'Waiting for a second admin to confirm the deletion.',
  notified: 'Notification was sent successfully',
  rejectionConfirmed: 'Your rejection was confirmed',
  approvedWaiting: 'Approved successfully, waiting for other approvals.',
  approvedWaitingSigning: 'Package is fully approved. Waiting for signing.',
  /** the deciding call of a generation off the request path (decision 160); the spec's texts follow once ready */
  generating: 'The XML package is being generated. The package page shows the progress.',
  retryGeneration: 'Retry',

  // §8 error catalogue
  sessionTimeout: 'Session timeout. Please login.',
  internalErrorPrefix: 'Internal server error. Please, contact administrator. Error: ',
  unexpectedAppError: 'Unexpected Application Error!',
  toLoginPage: 'To login page',
  toHomePage: 'To home page',
  close: 'Close',

  // §5 validation texts
  loginEmpty: 'Please enter your email and password',
  loginIncorrect: 'Login or password is incorrect',
  resetUserNotFoundShownAs: 'Login is incorrect',
  registerNameRequired: 'Please provide your name',
  registerEmailRequired: 'Please provide a valid email',
  registerPasswordRequired: 'Password should not be empty',
  registerPasswordsDiffer: 'Passwords should be the same',
  registerConflict: 'User with this email is already registered',
  passwordFieldsEmpty: 'All fields should not be empty',
  newPasswordsDiffer: 'New passwords should be the same',
  packageNoteRequired: 'Write a note with package description!',
  packageNameConflict: 'Package with this name already exists',
  resourceNameConflict: 'Resource with this name already exists',
  resourceNameRequired: 'Enter resource name!',
  fileTypeNotSupported: 'File type is not supported',
  fileTooBig: 'File size is too big',
  fileTooSmall: 'File size is too small',
  fileTypeSizeError: 'File type/size error, Hovered on types!',
  noFilesYet: 'No files uploaded yet',
  dccMessageLimit: 'Message limit must be bigger then 16 bytes',
  dccDeviceLimit: 'Device limit must be equal or bigger then Message limit',
  noSigners: 'No signers in the system!',
  notEnoughApprovers: 'Not enough approvers in the system!',
  adminReRegisterNote: "Note: user won't be able to register again with this email.",
  slogan: 'Inspiring the extraordinary',

  // §2, §9 labels, titles and button texts the web app shows (added with the web shell)
  signIn: 'Sign in',
  signUp: 'Sign up',
  forgotPassword: 'Forgot Password?',
  submit: 'Submit',
  settings: 'Settings',
  logOut: 'Log Out',
  save: 'Save',
  cancel: 'Cancel',
  continue: 'Continue',
  upload: 'Upload',
  changeUserInfo: 'Change user info',
  changePassword: 'Change password',
  createPackage: 'Create Package',
  selectResource: 'Select resource',
  deleteSelected: 'Delete selected',
  uploadPatchHeading: 'Upload Patch',
  uploadModelHeading: 'Upload Model',
  patchNameLabel: 'Patch name',
  modelNameLabel: 'Model name',
  fileNamePrefix: 'File name: ',
  generateDevPackageTitle: 'GENERATE NEW DEVELOPMENT PACKAGE',
  generateReleasePackageTitle: 'GENERATE NEW RELEASE PACKAGE',
  navPackages: 'PACKAGES',
  navPatches: 'PATCHES',
  navModels: 'MODELS',
  navApproval: 'APPROVAL',
  navSigning: 'SIGNING',
  navUpload: 'UPLOAD',
  navDcc: 'DCC',
  navUsers: 'USERS',
  navResources: 'RESOURCES',
  /** not the spec's: the admin navigation's audit trail entry (decision 346) */
  navAudit: 'AUDIT',
  tabDevelopment: 'Development',
  tabRelease: 'Release',
  tabDelivery: 'Delivery',
  tabPatch: 'Patch',
  tabModel: 'Model',
  stageDev: 'Dev',
  stageRelease: 'Release',

  // §2.5–§2.9, §4.4, §9 package screens
  approveDevPackageTitle: 'APPROVE DEVELOPMENT PACKAGE',
  approveReleasePackageTitle: 'APPROVE RELEASE PACKAGE',
  approveDeliveryPackageTitle: 'APPROVE DELIVERY PACKAGE',
  signDevPackageTitle: 'SIGN DEVELOPMENT PACKAGE',
  signReleasePackageTitle: 'SIGN RELEASE PACKAGE',
  devPackageApproved: 'DEVELOPMENT PACKAGE APPROVED',
  releasePackageApproved: 'RELEASE PACKAGE APPROVED',
  packageGenerated: 'PACKAGE GENERATED',
  packageRejectedTitle: 'REJECTED',
  packageApprovalPending: 'PACKAGE APPROVAL PENDING',
  generatedDevPackageTitle: 'GENERATED NEW DEVELOPMENT PACKAGE',
  generatedReleasePackageTitle: 'GENERATED NEW RELEASE PACKAGE',
  generatedSignedDevPackageTitle: 'GENERATED NEW SIGNED DEVELOPMENT PACKAGE',
  generatedSignedReleasePackageTitle: 'GENERATED NEW SIGNED RELEASE PACKAGE',
  releasePackageDelivery: 'RELEASE PACKAGE DELIVERY',
  generateDeliveryPackageTitle: 'GENERATE NEW DELIVERY PACKAGE',
  success: 'Success!',
  download: 'Download',
  done: 'Done',
  approve: 'Approve',
  reject: 'Reject',
  sign: 'Sign',
  deliver: 'Deliver',
  reDeliver: 'Re-deliver',
  /** decision 193: why an unsigned release package offers no Deliver */
  unsignedNotDelivered:
    'An unsigned release package is not sent to delivery: devices refuse unsigned release packages.',
  notify: 'Notify',
  back: 'Back',
  createNewDcc: 'Create new DCC',
  confirmRejectionTitle: 'Confirm Package Rejection',
  signQuestion: 'Sign?',
  signIndicator: 'SIGN',
  noSignIndicator: 'NO SIGN',
  deliveryRejectedLabel: 'Package rejected',
  colPackageName: 'Package name',
  colResourceType: 'Resource type',
  colResourceStage: 'Resource stage',
  colIsSigned: 'Is signed?',
  colNote: 'Note',
  colDeviceId: 'Device ID',
  colTelemetryType: 'Telemetry type',
  colDeviceLimit: 'Device limit',
  colMessageLimit: 'Message limit',
  colName: 'Name',
  colDecimal: 'Decimal',
  colHex: 'HEX',
  colValue: 'Value',
  colHexValue: 'Hex value',
  initiator: 'Initiator',
  resourceName: 'Resource name',
  uploadTime: 'Upload time',
  version: 'Version',

  // changes since the last approved package (review pages, GET /packages/{id}/changes)
  changesTitle: 'Changes since the last approved package',
  noEarlierApproved: 'No earlier approved package for this device and resource type.',
  changesNoDevice: 'No DCC is attached yet: the device to compare with is not known.',
  changesSeen: 'I have seen the changes since the last approved package for this device and resource type.',
  // decision 266: the comparison a decision was taken on is recorded; a stale one is refused
  changesStale:
    'The changes since the last approved package changed since you opened this page; reload the page, review them again and decide.',
} as const;

/** Server-side error texts (the body's `errorMessage`); `authError` values for identity calls. */
export const API_ERR = {
  userNotFound: 'User not found',
  wrongPassword: 'Login or password is incorrect',
  oldPasswordWrong: 'Old password is incorrect',
  tooManyAttempts: (seconds: number) => `Too many failed sign-in attempts. Try again in ${seconds} seconds.`,
  tooManyResetsForAddress: (max: number, windowMinutes: number, minutes: number) =>
    `A temporary password was already sent ${max} times in the last ${windowMinutes} minutes to this address. Check your mailbox, or try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyResetsFromSource: (minutes: number) =>
    `Too many password reset requests from your network address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  missingToken: 'Token invalid: no bearer token was sent',
  invalidToken: 'Token invalid: please sign in again',
  /** a valid token whose account an administrator deleted meanwhile (say why the session ended) */
  accountDeleted: 'Your account no longer exists: an administrator deleted it, so you are signed out.',
  forbidden: 'You are not allowed to do this',
  notImplemented: 'This call is not available yet',
  notFoundRoute: 'No such API route',
  malformedJson: 'The request body is not valid JSON',
  bodyTooLarge: 'The request body is too large',
  internal:
    'Something went wrong on the server. The request was not completed; try again or contact the administrator.',
  dependencyDown: (requestId: string) =>
    `A storage or mail service did not answer; nothing was changed. Try again in a moment (request ${requestId}).`,
  timedOut: (requestId: string) =>
    `The server stopped this request because it took too long. It may or may not have been carried out: reload the page to see the current state before trying again (request ${requestId}).`,
  emailConflict: 'User with this email already exists',
  adminRoleNotAllowed: 'The admin role cannot be chosen',
  nothingSelected: 'Select at least one item',

  // identity: confirmed mailbox, roles granted by an admin
  emailDomainNotAllowed: (domains: readonly string[]) =>
    `Use your company email address: only addresses at ${domains.map((d) => `@${d}`).join(', ')} can be registered`,
  emailNotConfirmed:
    'Confirm your email address first: open the link we mailed to you. No mail? Ask for a new link.',
  confirmLinkInvalid: 'This confirmation link is not valid. Ask for a new link from the sign-in page.',
  confirmLinkExpired: 'This confirmation link has expired (links work for 24 hours). Ask for a new link.',
  confirmLinkUsed: 'This confirmation link has already been used. Sign in, or ask for a new link.',
  confirmLinkReplaced: 'This link was replaced by a newer email change. Use the link in the newest mail.',
  emailConfirmed: 'Your email address is confirmed. You can sign in now.',
  emailChangeConfirmed: 'Your new email address is confirmed. Sign in with it from now on.',
  confirmationResent:
    'If an account with this address waits for confirmation, a new link was sent to it. It works for 24 hours.',
  tooManyConfirmationMails: (minutes: number) =>
    `Too many confirmation links were asked for this address. Try again in ${minutes} minutes.`,
  tooManyRoleRequests: (max: number, windowMinutes: number, minutes: number) =>
    `You asked for a new role ${max} times in the last ${windowMinutes} minutes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  ownRoleUnchangeable: 'An administrator cannot change their own role',
  ownRoleUndecidable: 'You cannot decide on your own role',
  adminRoleNotDecided: 'Administrator accounts are not granted or refused here (see npm run admin:create)',
  lastAdmin: 'The last administrator cannot be deleted',
  rolesDecided: 'The role decisions were saved',
  mustChangePassword:
    'You signed in with a temporary or one-time password: choose your own (Settings → Change password) before anything else',

  // the edge: the API is reached through the portal's address only, and limits each address
  notThroughPortal: 'Call the API through the portal address; direct calls to its endpoint are refused',
  tooManyFromAddress: 'Too many requests from your network address. Wait a few minutes and try again.',

  // the registrant is the mailbox owner
  noRoleYet:
    'Your account has no role yet. Choose the role you work in under Settings; two administrators then grant it.',
  roleAwaitsGrant: (label: string) =>
    `Your role ${label} waits for an administrator's approval. Until then you can only see and change your own settings.`,
  confirmPasswordNeeded: 'Enter the password you chose when you registered',
  confirmPasswordWrong:
    'This is not the password chosen when this address was registered. Nothing was confirmed. If you did not register, choose "I did not register".',
  registrationCancelled:
    'The registration was cancelled and nothing of it was kept. This address is free to register again.',
  emailChangeCancelled: 'The change of address was cancelled. The account keeps its current address.',
  cancelAfterConfirm:
    'This address was already confirmed, so it cannot be cancelled here. If you did not register, tell an administrator.',
  tooManyRegistrations: (minutes: number) =>
    `Too many registrations from your network address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;
