import { uploadHandler } from './upload-patch';

/** POST /resources/model/{stage}: the upload of upload-patch.ts with the type MODEL. */
export const handler = uploadHandler('uploadModel', 'MODEL');
