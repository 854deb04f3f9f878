package dev.lychee.api;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list of turns that is sorted and has no repeats: the mark that lets a rebuilt
 * candidate, or a candidate made from a record, take the list as it is. Only {@link #sortedDistinct}
 * and {@link #union} make one, so the mark cannot lie. Equal to, and printed like, any list of the
 * same turns.
 */
final class SortedTurns extends AbstractList<TurnRef> implements RandomAccess {
  private static final SortedTurns EMPTY = new SortedTurns(new TurnRef[0]);
  private final TurnRef[] turns;

  private SortedTurns(TurnRef[] turns) {
    this.turns = turns;
  }

  private static SortedTurns of(TurnRef[] turns) {
    return turns.length == 0 ? EMPTY : new SortedTurns(turns);
  }

  /**
   * The turns sorted and without repeats. Every stage rebuilds its candidates (a new score, a
   * merged hit), so a list made here is marked and taken as it is: in a namespace where a record
   * gathers evidence from many sessions it cites hundreds of turns, and checking their order again
   * on every rebuild cost more than the stage's own work (measurements.md §6, round twelve). A
   * record's evidence is made here too, so a candidate of a record takes it without a copy (round
   * twenty-four). Any other list is checked, and sorted only when it is not sorted already.
   */
  static List<TurnRef> sortedDistinct(List<TurnRef> turns) {
    if (turns instanceof SortedTurns) {
      return turns;
    }
    TurnRef[] a = turns.toArray(new TurnRef[0]);
    for (int i = 1; i < a.length; i++) {
      if (a[i - 1].compareTo(a[i]) >= 0) {
        return of(turns.stream().distinct().sorted().toArray(TurnRef[]::new));
      }
    }
    for (TurnRef t : a) {
      Objects.requireNonNull(t, "turn");
    }
    return of(a);
  }

  /**
   * Both lists' turns (each made by {@link #sortedDistinct}), sorted and without repeats, in one pass
   * over the two sorted lists: a repeated hit of a record mostly cites the same turns, which a
   * concatenation would first double and then sort again.
   */
  static List<TurnRef> union(List<TurnRef> a, List<TurnRef> b) {
    if (b.isEmpty() || a.equals(b)) {
      return a;
    }
    if (a.isEmpty()) {
      return b;
    }
    TurnRef[] out = new TurnRef[a.size() + b.size()];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.size() && j < b.size()) {
      int c = a.get(i).compareTo(b.get(j));
      if (c < 0) {
        out[n++] = a.get(i++);
      } else if (c > 0) {
        out[n++] = b.get(j++);
      } else {
        out[n++] = a.get(i++);
        j++;
      }
    }
    while (i < a.size()) {
      out[n++] = a.get(i++);
    }
    while (j < b.size()) {
      out[n++] = b.get(j++);
    }
    return of(n == out.length ? out : Arrays.copyOf(out, n));
  }

  @Override
  public TurnRef get(int index) {
    return turns[index];
  }

  @Override
  public int size() {
    return turns.length;
  }
}
