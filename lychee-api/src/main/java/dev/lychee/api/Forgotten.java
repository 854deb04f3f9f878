package dev.lychee.api;

import java.util.List;

/**
 * What a {@code forget} call removed from a record store, so that callers can drop the matching
 * vectors from a vector index.
 *
 * @param turnIds removed raw-turn ids
 * @param recordIds removed record ids
 * @param nodeIds removed evidence-node ids
 */
public record Forgotten(List<String> turnIds, List<String> recordIds, List<String> nodeIds) {
  public Forgotten {
    turnIds = List.copyOf(turnIds);
    recordIds = List.copyOf(recordIds);
    nodeIds = List.copyOf(nodeIds);
  }
}
