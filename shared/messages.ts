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
  notified: 'Notification was sent successfully',
  rejectionConfirmed: 'Your rejection was confirmed',
  approvedWaiting: 'Approved successfully, waiting for other approvals.',
  approvedWaitingSigning: 'Package is fully approved. Waiting for signing.',

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
} as const;

/** Server-side error texts (the body's `errorMessage`); `authError` values for identity calls. */
export const API_ERR = {
  userNotFound: 'User not found',
  wrongPassword: 'Login or password is incorrect',
  oldPasswordWrong: 'Old password is incorrect',
  tooManyAttempts: (seconds: number) => `Too many failed sign-in attempts. Try again in ${seconds} seconds.`,
  missingToken: 'Token invalid: no bearer token was sent',
  invalidToken: 'Token invalid: please sign in again',
  forbidden: 'You are not allowed to do this',
  notImplemented: 'This call is not available yet',
  notFoundRoute: 'No such API route',
  malformedJson: 'The request body is not valid JSON',
  bodyTooLarge: 'The request body is too large',
  internal:
    'Something went wrong on the server. The request was not completed; try again or contact the administrator.',
  emailConflict: 'User with this email already exists',
  adminRoleNotAllowed: 'The admin role cannot be chosen',
  nothingSelected: 'Select at least one item',
} as const;
