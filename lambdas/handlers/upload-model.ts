import { notImplemented } from '../middleware/not-implemented';

export const handler = notImplemented('uploadModel');
