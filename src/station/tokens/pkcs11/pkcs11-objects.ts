import pkcs11js from 'pkcs11js';

/** Every object matching `template`, in batches (C_FindObjects returns at most the count asked for). */
export function findObjects(library: pkcs11js.PKCS11, session: pkcs11js.Handle, template: pkcs11js.Template): pkcs11js.Handle[] {
  library.C_FindObjectsInit(session, template);
  try {
    const found: pkcs11js.Handle[] = [];
    for (;;) {
      const batch = library.C_FindObjects(session, 64);
      if (batch.length === 0) return found;
      found.push(...batch);
    }
  } finally {
    library.C_FindObjectsFinal(session);
  }
}

/** One attribute's bytes; undefined when the object does not have it (CKR_ATTRIBUTE_TYPE_INVALID). */
export function readAttribute(library: pkcs11js.PKCS11, session: pkcs11js.Handle, object: pkcs11js.Handle, type: number): Buffer | undefined {
  try {
    return library.C_GetAttributeValue(session, object, [{ type }])[0]?.value;
  } catch (error) {
    if (error instanceof pkcs11js.Pkcs11Error && (error.code === pkcs11js.CKR_ATTRIBUTE_TYPE_INVALID || error.code === pkcs11js.CKR_ATTRIBUTE_SENSITIVE)) {
      return undefined;
    }
    throw error;
  }
}

/** CK_ULONG / CK_BBOOL attribute values come back in the platform's byte order and width. */
export function attributeNumber(value: Buffer | undefined): number | undefined {
  if (!value || value.length === 0) return undefined;
  if (value.length === 1) return value[0];
  return Number(value.length >= 8 ? value.readBigUInt64LE(0) : value.readUInt32LE(0));
}
