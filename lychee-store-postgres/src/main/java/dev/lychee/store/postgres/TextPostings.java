package dev.lychee.store.postgres;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The full-text postings of one namespace's rows of a table with a {@code tsv} column (turns,
 * records), kept in memory by an instance: for every lexeme of the stored {@code tsv}, the rows
 * holding it and that lexeme's part of the row's {@code ts_rank}. {@link #search} answers exactly
 * what the table's {@code ts_rank} query answers in the database ({@link TurnTable#search},
 * {@link RecordTable#search}) for a query of {@linkplain #plain plain} terms: the same hits, the
 * same {@code real} scores to the bit, the same order.
 *
 * <p>Why: every turn of a conversation is indexed as {@code "<speaker>: <text>"}, so a question
 * that names a speaker matches most of the namespace, and the server ranked every matching turn
 * before it could keep the top k: a search grew with the namespace (measurements.md §6, rounds
 * eleven and twelve); the records' search, the last server-side statement of a recall, grew the
 * same way (0.7 to 12 ms of server time at x20, round eighteen). Here a search walks the postings
 * of the query's few terms, arrays in memory.
 *
 * <p>The lexemes are PostgreSQL's own (read from {@code tsv::text}), so the documents are split and
 * normalised exactly as the server did; only the query side is done here, and only for terms whose
 * lexeme is certainly the term itself ({@link #plain}). The score is {@code ts_rank} with its
 * default weights and normalisation 0 over the OR of single-lexeme terms (PostgreSQL's
 * {@code calc_rank_or}): per matched term, over the term's positions in stored order with weight
 * {@code w_j} (D 0.1, C 0.2, B 0.4, A 1.0), {@code resj = sum w_j / (j+1)^2} in {@code float}, the
 * largest weight {@code wjm} at its first position {@code jm}, and a part {@code (wjm + resj - wjm /
 * (jm+1)^2) / 1.64493406685} in {@code double}, added to a {@code float} sum term by term in byte
 * order of the terms; the sum divided by the number of terms. The arithmetic follows the C source
 * type for type, so the float is the server's. A row's score depends on its own {@code tsv} only,
 * so which other rows the postings hold changes no score.
 *
 * <p>A row added again under its hit id (a record rewritten by a merge or a pruned session)
 * replaces the earlier one: the earlier slot is dead, skipped by searches, and when at least
 * {@value #MIN_DEAD_TO_COMPACT} slots are dead and they are more than half of all slots the
 * postings are compacted in place ({@link #add}), so merges cannot grow them without bound (round
 * nineteen, as SQLite's {@code RecordBm25}, which reads the namespace again instead; here the parts
 * are kept, so no read is needed). Turns are never rewritten and so leave no dead slot.
 *
 * <p>Not thread-safe: {@link TurnTextIndex} and {@link LocalRows} guard each copy with a lock;
 * searches may run in parallel, {@link #add} alone.
 */
final class TextPostings {
  /** {@code ts_rank}'s default weights, indexed by the stored weight (D 0, C 1, B 2, A 3). */
  private static final float[] WEIGHTS = {0.1f, 0.2f, 0.4f, 1.0f};
  /** The constant {@code calc_rank_or} divides by (pi^2 / 6 as written in PostgreSQL's source). */
  private static final double ZETA2 = 1.64493406685;
  /** Longest term searched here; the server skips words over 2047 bytes, so longer ones go there. */
  private static final int MAX_PLAIN_TERM = 1000;
  /** Ties broken as {@code ORDER BY hit COLLATE "C"}: by UTF-8 bytes, which is code point order. */
  static final Comparator<String> BYTE_ORDER = TextPostings::compareCodePoints;

  /**
   * Dead slots below this never start a compaction, so a small namespace is not compacted for a few
   * merges (the bound SQLite's {@code RecordBm25} uses).
   */
  static final int MIN_DEAD_TO_COMPACT = 1024;

  /** The rows holding one lexeme, with the lexeme's part of each row's score. */
  private static final class LexemeRows {
    int[] slots = new int[4];
    double[] parts = new double[4];
    int size;

    void add(int slot, double part) {
      if (size == slots.length) {
        slots = Arrays.copyOf(slots, size * 2);
        parts = Arrays.copyOf(parts, size * 2);
      }
      slots[size] = slot;
      parts[size] = part;
      size++;
    }
  }

  /** Each slot's hit id; null for a dead slot (its row was added again since). */
  private final List<String> hits = new ArrayList<>();
  /** The live slot of each hit id. */
  private final Map<String, Integer> slotOf = new HashMap<>();
  private int dead;
  private final Map<String, LexemeRows> postings = new HashMap<>();
  private final int minDeadToCompact;

  TextPostings() {
    this(MIN_DEAD_TO_COMPACT);
  }

  /** Postings that compact from {@code minDeadToCompact} dead slots on (tests use a small bound). */
  TextPostings(int minDeadToCompact) {
    this.minDeadToCompact = minDeadToCompact;
  }

  /** Live rows held. */
  int size() {
    return hits.size() - dead;
  }

  /** Slots held, live and dead. */
  int slots() {
    return hits.size();
  }

  /** Slots whose row was added again since (until the next compaction). */
  int deadSlots() {
    return dead;
  }

  /**
   * Adds one row: its hit id (as the table's SQL search builds it: {@code episode:<session>:<idx>}
   * for a turn, the id for a record) and its {@code tsv} in PostgreSQL's text form ({@code
   * 'lexeme':1,5B 'other':2}). A hit id already held is replaced: its earlier slot dies, and the
   * postings are compacted when the dead slots pass the bound (at least {@link #MIN_DEAD_TO_COMPACT}
   * and more than half the slots).
   */
  void add(String hit, String tsv) {
    int slot = hits.size();
    Integer old = slotOf.put(hit, slot);
    if (old != null) {
      hits.set(old, null);
      dead++;
    }
    hits.add(hit);
    int i = 0;
    int n = tsv.length();
    StringBuilder lexeme = new StringBuilder();
    while (i < n) {
      while (i < n && tsv.charAt(i) == ' ') {
        i++;
      }
      if (i >= n) {
        break;
      }
      if (tsv.charAt(i) != '\'') {
        throw new IllegalStateException("unexpected tsvector text at " + i);
      }
      i++;
      lexeme.setLength(0);
      while (true) {
        char c = tsv.charAt(i);
        if (c == '\'' || c == '\\') {
          // the output doubles both; a single quote not followed by another ends the lexeme
          if (c == '\'' && (i + 1 >= n || tsv.charAt(i + 1) != '\'')) {
            i++;
            break;
          }
          lexeme.append(c);
          i += 2;
        } else {
          lexeme.append(c);
          i++;
        }
      }
      float resj = 0f;
      float wjm = -1f;
      int jm = 0;
      int j = 0;
      if (i < n && tsv.charAt(i) == ':') {
        i++;
        while (i < n && tsv.charAt(i) != ' ') {
          while (i < n && Character.isDigit(tsv.charAt(i))) {
            i++;
          }
          int weight = 0;
          if (i < n) {
            char c = tsv.charAt(i);
            if (c == 'A' || c == 'B' || c == 'C' || c == 'D') {
              weight = c == 'A' ? 3 : c == 'B' ? 2 : c == 'C' ? 1 : 0;
              i++;
            }
          }
          float w = WEIGHTS[weight];
          resj = resj + w / ((j + 1) * (j + 1));
          if (w > wjm) {
            wjm = w;
            jm = j;
          }
          j++;
          if (i < n && tsv.charAt(i) == ',') {
            i++;
          }
        }
      }
      if (j == 0) {
        // a lexeme without positions counts as one position of weight D, as in calc_rank_or
        resj = WEIGHTS[0];
        wjm = WEIGHTS[0];
        jm = 0;
      }
      double part = (double) (wjm + resj - wjm / ((jm + 1) * (jm + 1))) / ZETA2;
      postings.computeIfAbsent(lexeme.toString(), key -> new LexemeRows()).add(slot, part);
    }
    if (dead >= minDeadToCompact && dead * 2 > hits.size()) {
      compact();
    }
  }

  /**
   * Drops the dead slots: the live ones are numbered again in their order and every lexeme's list
   * keeps its live entries in order, so later searches walk and score exactly what they did.
   */
  private void compact() {
    int[] renumbered = new int[hits.size()];
    List<String> live = new ArrayList<>(hits.size() - dead);
    for (int slot = 0; slot < hits.size(); slot++) {
      String hit = hits.get(slot);
      renumbered[slot] = hit == null ? -1 : live.size();
      if (hit != null) {
        slotOf.put(hit, live.size());
        live.add(hit);
      }
    }
    postings.values().removeIf(list -> {
      int kept = 0;
      for (int p = 0; p < list.size; p++) {
        int slot = renumbered[list.slots[p]];
        if (slot >= 0) {
          list.slots[kept] = slot;
          list.parts[kept] = list.parts[p];
          kept++;
        }
      }
      list.size = kept;
      return kept == 0;
    });
    hits.clear();
    hits.addAll(live);
    dead = 0;
  }

  /**
   * Whether the server's {@code plainto_tsquery('simple', term)} is the single lexeme {@code term}
   * itself: lower-case ASCII letters and digits, not too long, and no digit-{@code e}-digit, which
   * the server's parser reads as a number in scientific notation and may split there ({@code 1e5x}
   * becomes {@code '1e5' & 'x'}). Other terms are searched by the database.
   */
  static boolean plain(String term) {
    int n = term.length();
    if (n == 0 || n > MAX_PLAIN_TERM) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = term.charAt(i);
      boolean digit = isDigit(c);
      if (!digit && (c < 'a' || c > 'z')) {
        return false;
      }
      if (c == 'e' && i > 0 && i + 1 < n && isDigit(term.charAt(i - 1)) && isDigit(term.charAt(i + 1))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** A scored hit during selection: the {@code real} score and the row's slot. */
  private record Hit(float score, int slot) {}

  /**
   * The top {@code k} live rows for the OR of {@code terms} (distinct, all {@link #plain}), best
   * first, ties by hit id in byte order: what the table's SQL search returns for the same terms.
   */
  List<ScoredId> search(List<String> terms, int k) {
    if (terms.isEmpty() || size() == 0) {
      return List.of();
    }
    // calc_rank_or adds the terms' parts in the order of its sorted operands (bytes, shorter first)
    List<String> sorted = new ArrayList<>(terms);
    sorted.sort(BYTE_ORDER);
    float[] sums = new float[hits.size()];
    boolean[] matched = new boolean[hits.size()];
    int[] touched = new int[Math.min(hits.size(), 1024)];
    int touchedCount = 0;
    for (String term : sorted) {
      LexemeRows list = postings.get(term);
      if (list == null) {
        continue;
      }
      int[] slots = list.slots;
      double[] parts = list.parts;
      for (int p = 0; p < list.size; p++) {
        int slot = slots[p];
        sums[slot] = (float) (sums[slot] + parts[p]);
        if (!matched[slot]) {
          matched[slot] = true;
          if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, Math.min(hits.size(), touched.length * 2));
          }
          touched[touchedCount++] = slot;
        }
      }
    }
    int size = terms.size();
    Comparator<Hit> worstFirst = (a, b) -> {
      int c = Float.compare(a.score(), b.score());
      return c != 0 ? c : BYTE_ORDER.compare(hits.get(b.slot()), hits.get(a.slot()));
    };
    PriorityQueue<Hit> top = new PriorityQueue<>(Math.min(k, touchedCount) + 1, worstFirst);
    for (int t = 0; t < touchedCount; t++) {
      int slot = touched[t];
      if (hits.get(slot) == null) {
        continue;
      }
      float score = sums[slot] / size;
      Hit hit = new Hit(score, slot);
      if (top.size() < k) {
        top.add(hit);
      } else if (worstFirst.compare(hit, top.peek()) > 0) {
        top.poll();
        top.add(hit);
      }
    }
    List<Hit> best = new ArrayList<>(top);
    best.sort(worstFirst.reversed());
    List<ScoredId> out = new ArrayList<>(best.size());
    for (Hit h : best) {
      out.add(new ScoredId(hits.get(h.slot()), h.score()));
    }
    return out;
  }

  /** Compares by code point, which is the order of the strings' UTF-8 bytes. */
  static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        // UTF-16 order differs from code point order only between a surrogate (a code point above
        // U+FFFF) and a unit of U+E000..U+FFFF
        boolean sx = Character.isSurrogate(x);
        boolean sy = Character.isSurrogate(y);
        if (sx != sy) {
          return sx ? 1 : -1;
        }
        return Character.compare(x, y);
      }
    }
    return Integer.compare(a.length(), b.length());
  }
}
