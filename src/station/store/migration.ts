/**
 * A schema change, owned by the area that needs it (`tsa-001-serial-counter`, `clients-001-table`). Ids are
 * applied once, in the order the composition root lists them, each in its own transaction.
 */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}
