package dev.lychee.core.store;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * Merge-on-put, planned once for every backend: records and nodes whose id is already stored, or
 * repeated within one call, are merged ({@link MemoryRecord#mergedWith}, {@link EvidenceNode#mergedWith})
 * into one value per id, and a merged value keeps the stored one's position so that first-insertion
 * order survives. The backend looks values up and writes the plan; it never merges itself.
 */
public final class MergeOnPut {
  private MergeOnPut() {}

  /** Position of a value that is not stored yet. */
  public static final long NEW = -1;

  /**
   * A value and where it sits in its backend's insertion order ({@link #NEW} for one to append).
   * A lookup returns the stored value with its position; a plan returns what to write.
   */
  public record Placed<T>(T value, long position) {
    public Placed {
      Objects.requireNonNull(value, "value");
    }

    /** True when the value is not stored yet and gets the next position. */
    public boolean isNew() {
      return position == NEW;
    }
  }

  /** How a backend finds the stored value of an id, inside its write transaction. */
  @FunctionalInterface
  public interface Lookup<T, E extends Exception> {
    Optional<Placed<T>> find(String id) throws E;
  }

  /** The records to write for {@code incoming}: one per id, in first-seen order, merged with the stored ones. */
  public static <E extends Exception> List<Placed<MemoryRecord>> records(List<MemoryRecord> incoming,
      Lookup<MemoryRecord, E> stored) throws E {
    return plan(incoming, MemoryRecord::id, MemoryRecord::mergedWith, stored);
  }

  /** The nodes to write for {@code incoming}: one per id, in first-seen order, merged with the stored ones. */
  public static <E extends Exception> List<Placed<EvidenceNode>> nodes(List<EvidenceNode> incoming,
      Lookup<EvidenceNode, E> stored) throws E {
    return plan(incoming, EvidenceNode::id, EvidenceNode::mergedWith, stored);
  }

  private static <T, E extends Exception> List<Placed<T>> plan(List<T> incoming, Function<T, String> idOf,
      BinaryOperator<T> merge, Lookup<T, E> stored) throws E {
    Map<String, Placed<T>> out = new LinkedHashMap<>();
    for (T value : incoming) {
      String id = idOf.apply(value);
      Placed<T> base = out.get(id);
      if (base == null) {
        base = stored.find(id).orElse(null);
      }
      out.put(id, base == null ? new Placed<>(value, NEW) : new Placed<>(merge.apply(base.value(), value), base.position()));
    }
    return new ArrayList<>(out.values());
  }
}
