import { type ApiResult, authHeaders, type RequestOptions, reportFailure, toResult } from './api-client';

export interface Progress {
  loaded: number;
  total: number;
}

export interface SendOptions {
  method: 'POST' | 'PUT';
  url: string;
  body: XMLHttpRequestBodyInit;
  /** our API wants the bearer token; a presigned storage URL must not get it */
  auth: boolean;
  headers?: Record<string, string>;
  onProgress?: (progress: Progress) => void;
  handle?: RequestOptions['handle'];
  /** what to tell when the request never got an answer */
  networkErrorMessage?: string;
}

/** XMLHttpRequest, because fetch reports no upload progress (spec §2.11: a progress bar for uploads). */
export function sendWithProgress<T>(options: SendOptions): Promise<ApiResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method, options.url);
    const headers = { ...(options.auth ? authHeaders() : {}), ...options.headers };
    for (const [key, value] of Object.entries(headers)) xhr.setRequestHeader(key, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    });
    const finish = (result: ApiResult<T>) => {
      reportFailure(result, options.handle);
      resolve(result);
    };
    xhr.addEventListener('load', () => finish(toResult<T>(xhr.status, xhr.responseText)));
    xhr.addEventListener('error', () =>
      finish({
        ok: false,
        status: 0,
        error: { errorMessage: options.networkErrorMessage ?? 'The upload could not reach the server' },
      }),
    );
    xhr.addEventListener('abort', () =>
      resolve({ ok: false, status: 0, error: { errorMessage: 'The upload was cancelled' } }),
    );
    xhr.send(options.body);
  });
}
