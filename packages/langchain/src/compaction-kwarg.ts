/** The `additional_kwargs` key that carries core's `metadata.compaction` on messages core wrote. */
export const COMPACTION_KWARG = 'compaction';
