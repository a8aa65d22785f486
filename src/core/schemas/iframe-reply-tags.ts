/**
 * Every reply of the iframe helper carries this sender tag, the request's `operation` and `status`; the widely
 * deployed browser client matches replies by tag and operation, so the tag is a wire fact, not a brand.
 */
export const IFRAME_REPLY_SENDER = 'EIDEASY_ID_CARD_INTEGRATION';

/** The answer that client reads as "the user cancelled" (`result` or `message` equal to it). */
export const IFRAME_USER_CANCEL = 'user_cancel';
