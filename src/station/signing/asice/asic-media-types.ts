// The containers' media types, apart from the reader so that code which only recognises a container (the desk,
// on every start) does not load the zip and XML parsers.
export const ASICE_MEDIA_TYPE = 'application/vnd.etsi.asic-e+zip';
/** ASiC-S: one data file, here with its timestamp token (the Timestamp screen writes it, verification reads it). */
export const ASICS_MEDIA_TYPE = 'application/vnd.etsi.asic-s+zip';
