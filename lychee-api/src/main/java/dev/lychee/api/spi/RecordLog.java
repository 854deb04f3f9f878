package dev.lychee.api.spi;

import dev.lychee.api.MemoryRecord;
import java.util.Collection;
import java.util.List;

/**
 * Reads of the memory records a namespace holds (written by {@link SegmentLog#commitEncoding}),
 * in first-insertion order: a merge keeps a record's place.
 */
public interface RecordLog {

  /** The records with these ids, in the order of {@code ids}; unknown ids are skipped, repeats come once. */
  List<MemoryRecord> records(String namespace, Collection<String> ids);

  /** All records of a namespace, in first-insertion order. */
  List<MemoryRecord> records(String namespace);
}
