package dev.lychee.api.spi;

import dev.lychee.api.MemoryRecord;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link RecordStore#linkedRecords} reads in one call: the record ids some evidence nodes link
 * to, and the stored records among them.
 *
 * @param recordIds node id to the first record ids it links (as {@link NodeLog#nodeRecordIds} gives
 *     them, cut to the number asked; no null id), keyed in the order the nodes were asked for; unknown nodes are
 *     left out
 * @param records the stored records of those ids, each once, in the order its id first appears in
 *     {@code recordIds}; an id without a stored record is left out
 */
public record LinkedRecords(Map<String, List<String>> recordIds, List<MemoryRecord> records) {
  /** No node and no record. */
  public static final LinkedRecords NONE = new LinkedRecords(Map.of(), List.of());

  public LinkedRecords {
    Objects.requireNonNull(recordIds, "recordIds");
    Map<String, List<String>> copy = new LinkedHashMap<>();
    // one array per node, none for a list that is immutable already (round twenty-four)
    recordIds.forEach((node, ids) -> copy.put(Objects.requireNonNull(node, "node id"), List.copyOf(ids)));
    recordIds = Collections.unmodifiableMap(copy);
    records = List.copyOf(records);
  }
}
