export { StationError, isStationError, type StationErrorCode, type StationErrorOptions } from './station-error.js';
export { InvalidInputError } from './invalid-input-error.js';
export { NotFoundError } from './not-found-error.js';
export { ForbiddenError } from './forbidden-error.js';
export { STATION_ERROR_CODES } from './station-error-codes.js';
