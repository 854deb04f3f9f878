package dev.lychee.api;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * How a candidate was found: the channels, queries, evidence nodes and routes that reached it.
 * Merging two provenances unions each list, keeping first-seen order.
 */
public record Provenance(List<String> channels, List<String> queries, List<String> nodes, List<String> routes) {

  public static final Provenance EMPTY = new Provenance(List.of(), List.of(), List.of(), List.of());

  /** Up to this size a list is checked for repeats pairwise; beyond it, through a hash table. */
  private static final int PAIRWISE = 8;

  public Provenance {
    channels = dedup(channels);
    queries = dedup(queries);
    nodes = dedup(nodes);
    routes = dedup(routes);
  }

  /** Provenance of one hit. {@code node} and {@code route} may be null. */
  public static Provenance of(String channel, String query, String node, String route) {
    return new Provenance(opt(channel), opt(query), opt(node), opt(route));
  }

  public Provenance merge(Provenance other) {
    return new Provenance(cat(channels, other.channels), cat(queries, other.queries),
        cat(nodes, other.nodes), cat(routes, other.routes));
  }

  private static List<String> opt(String s) {
    return s == null || s.isBlank() ? List.of() : List.of(s);
  }

  /** {@code a} and then what {@code b} adds, both distinct already (this record's own lists). */
  private static List<String> cat(List<String> a, List<String> b) {
    if (b.isEmpty()) {
      return a;
    }
    if (a.isEmpty()) {
      return b;
    }
    String[] all = new String[a.size() + b.size()];
    for (int i = 0; i < a.size(); i++) {
      all[i] = a.get(i);
    }
    for (int j = 0; j < b.size(); j++) {
      all[a.size() + j] = b.get(j);
    }
    // a repeated hit usually adds nothing new, and a is deduplicated and immutable already
    int n = firstOccurrences(all, a.size());
    return n == a.size() ? a : distinct(all, n);
  }

  /**
   * The list without repeats, first occurrences kept. Candidates are rebuilt at every stage, so
   * a list this record made is marked ({@link Distinct}) and kept, a short one is checked
   * pairwise and kept when immutable already, and a longer one goes through one table of indexes,
   * not a linked set: an evidence-node record linked by many nodes, and every merge of it, went
   * through a {@code LinkedHashSet} each time (measurements.md §6, round twenty-four).
   */
  private static List<String> dedup(List<String> l) {
    if (l instanceof Distinct) {
      return l;
    }
    if (l.size() <= PAIRWISE) {
      return isDistinct(l) ? List.copyOf(l) : distinct(l.toArray(new String[0]), -1);
    }
    return distinct(l.toArray(new String[0]), -1);
  }

  /** The first {@code n} of {@code items} (all of them when {@code n} is negative, after dropping repeats). */
  private static List<String> distinct(String[] items, int n) {
    for (String s : items) {
      Objects.requireNonNull(s);
    }
    int size = n < 0 ? firstOccurrences(items, 0) : n;
    if (size <= PAIRWISE) {
      return List.of(size == items.length ? items : Arrays.copyOf(items, size));
    }
    return new Distinct(size == items.length ? items : Arrays.copyOf(items, size));
  }

  /**
   * Moves the first occurrence of every item of {@code items} to its front, in order, and returns
   * how many there are; the first {@code known} items are distinct already. One open-addressing table
   * of indexes, no entry objects.
   */
  private static int firstOccurrences(String[] items, int known) {
    int n = items.length;
    if (n <= PAIRWISE) {
      int out = Math.max(known, 0);
      for (int i = out; i < n; i++) {
        boolean seen = false;
        for (int j = 0; j < out && !seen; j++) {
          seen = items[j].equals(items[i]);
        }
        if (!seen) {
          items[out++] = items[i];
        }
      }
      return out;
    }
    int[] table = new int[Integer.highestOneBit(n * 2 - 1) << 1];
    int mask = table.length - 1;
    int out = 0;
    for (int i = 0; i < n; i++) {
      String s = items[i];
      int slot = spread(s.hashCode()) & mask;
      boolean seen = false;
      if (i >= known) {
        for (int at = table[slot]; at != 0; slot = (slot + 1) & mask, at = table[slot]) {
          if (items[at - 1].equals(s)) {
            seen = true;
            break;
          }
        }
      } else {
        while (table[slot] != 0) {
          slot = (slot + 1) & mask;
        }
      }
      if (!seen) {
        items[out] = s;
        table[slot] = ++out;
      }
    }
    return out;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }

  /** True for a short list without repeats; longer lists are left to the table. */
  private static boolean isDistinct(List<String> l) {
    int n = l.size();
    for (int i = 1; i < n; i++) {
      for (int j = 0; j < i; j++) {
        if (l.get(i).equals(l.get(j))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * An immutable list of more than {@link #PAIRWISE} strings without repeats: the mark that lets a
   * rebuilt provenance take it as it is. Only {@link #distinct} makes one, so the mark cannot lie.
   * Equal to, and printed like, any list of the same strings.
   */
  private static final class Distinct extends AbstractList<String> implements RandomAccess {
    private final String[] items;

    Distinct(String[] items) {
      this.items = items;
    }

    @Override
    public String get(int index) {
      return items[index];
    }

    @Override
    public int size() {
      return items.length;
    }
  }
}
