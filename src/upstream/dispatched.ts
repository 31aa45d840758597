// undici tells a request's handler when the request is written to a connection; its request() API
// does not pass that on, so this interceptor does.
import type { Dispatcher } from 'undici';

/** The request option that receives the moment: its value is called once the request is being written. */
export const ON_DISPATCH = Symbol('onDispatch');

export type DispatchWatched = Dispatcher.RequestOptions & { [ON_DISPATCH]?: () => void };

/**
 * Calls a request's `[ON_DISPATCH]` when undici hands it to a connected socket to write (its
 * `onRequestStart`): a request refused while connecting, or aborted while waiting for a connection,
 * never gets there.
 */
export const dispatchWatch: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
  const onDispatch = (options as DispatchWatched)[ON_DISPATCH];
  if (!onDispatch) return dispatch(options, handler);
  return dispatch(options, {
    onRequestStart(controller, context) {
      onDispatch();
      handler.onRequestStart?.(controller, context);
    },
    onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
    onResponseStart: (...args) => handler.onResponseStart?.(...args),
    onResponseData: (...args) => handler.onResponseData?.(...args),
    onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
    onResponseError: (...args) => handler.onResponseError?.(...args),
  });
};
