package dev.lychee.api;

import java.time.LocalDateTime;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A piece of evidence on its way through recall, fusion, reranking and selection. Every stage
 * returns new candidates; the {@code score} component holds the score of the stage that produced
 * the instance.
 *
 * @param id unique within a namespace: a record id, a raw-turn id ({@code episode:<s>:<i>}) or a
 *     window id ({@code source_window:<s>:<a>-<b>})
 * @param kind what it is
 * @param namespace the namespace it was read from
 * @param text the text shown to the answerer
 * @param session the source session
 * @param turns the raw turns the candidate cites, sorted
 * @param mentionedAt when the source dialogue took place; nullable
 * @param temporal the temporal scope of a record ({@link TemporalScope#NONE} for raw turns)
 * @param memoryType the record's type; nullable for raw turns and windows
 * @param sourceRole whose words these are
 * @param entities entities (records) or empty
 * @param tags tags (records) or empty
 * @param score the current stage's score in [0, 1]
 * @param similarity the best embedding retrieval score {@code r} seen for this candidate, in [0, 1]
 *     (0 if it was never reached by vector search)
 * @param provenance how it was found
 */
public record Candidate(
    String id,
    CandidateKind kind,
    String namespace,
    String text,
    String session,
    List<TurnRef> turns,
    LocalDateTime mentionedAt,
    TemporalScope temporal,
    MemoryType memoryType,
    SourceRole sourceRole,
    List<String> entities,
    List<String> tags,
    double score,
    double similarity,
    Provenance provenance) {

  public Candidate {
    Checks.nonBlank(id, "id");
    Objects.requireNonNull(kind, "kind");
    Checks.nonBlank(namespace, "namespace");
    Objects.requireNonNull(text, "text");
    session = Checks.orEmpty(session);
    turns = sortedDistinct(turns);
    temporal = temporal == null ? TemporalScope.NONE : temporal;
    sourceRole = sourceRole == null ? SourceRole.UNKNOWN : sourceRole;
    entities = List.copyOf(entities);
    tags = List.copyOf(tags);
    if (Double.isNaN(score)) {
      throw new IllegalArgumentException("score must not be NaN");
    }
    provenance = provenance == null ? Provenance.EMPTY : provenance;
  }

  /**
   * The turns sorted and without repeats. Every stage rebuilds its candidates (a new score, a
   * merged hit), so a list this constructor produced is marked ({@link SortedTurns}) and taken as
   * it is: in a namespace where a record gathers evidence from many sessions it cites hundreds of
   * turns, and checking their order again on every rebuild cost more than the stage's own work
   * (measurements.md §6, round twelve). Any other list is checked, and sorted only when it is not
   * sorted already.
   */
  private static List<TurnRef> sortedDistinct(List<TurnRef> turns) {
    if (turns instanceof SortedTurns) {
      return turns;
    }
    TurnRef[] a = turns.toArray(new TurnRef[0]);
    for (int i = 1; i < a.length; i++) {
      if (a[i - 1].compareTo(a[i]) >= 0) {
        return SortedTurns.of(turns.stream().distinct().sorted().toArray(TurnRef[]::new));
      }
    }
    for (TurnRef t : a) {
      Objects.requireNonNull(t, "turn");
    }
    return SortedTurns.of(a);
  }

  /**
   * Both candidates' turns, sorted and without repeats, in one pass over the two sorted lists: a
   * repeated hit of a record mostly cites the same turns, which a concatenation would first
   * double and then sort again.
   */
  private static List<TurnRef> union(List<TurnRef> a, List<TurnRef> b) {
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
    return SortedTurns.of(n == out.length ? out : Arrays.copyOf(out, n));
  }

  /**
   * An immutable list of turns that is sorted and has no repeats: the mark that lets a rebuilt
   * candidate skip the check. Only {@link #sortedDistinct} and {@link #union} make one, so the
   * mark cannot lie.
   */
  private static final class SortedTurns extends AbstractList<TurnRef> implements RandomAccess {
    private static final SortedTurns EMPTY = new SortedTurns(new TurnRef[0]);
    private final TurnRef[] turns;

    private SortedTurns(TurnRef[] turns) {
      this.turns = turns;
    }

    static SortedTurns of(TurnRef[] turns) {
      return turns.length == 0 ? EMPTY : new SortedTurns(turns);
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

  /** A candidate for one raw turn. */
  public static Candidate ofTurn(RawTurn turn, double score, double similarity, Provenance provenance) {
    return new Candidate(turn.id(), CandidateKind.RAW_TURN, turn.namespace(), turn.content(),
        turn.session(), List.of(turn.ref()), turn.time(), TemporalScope.NONE, null,
        turn.role() == Role.ASSISTANT ? SourceRole.ASSISTANT : SourceRole.USER, List.of(), List.of(),
        score, similarity, provenance);
  }

  /** A candidate for one memory record. */
  public static Candidate ofRecord(MemoryRecord r, double score, double similarity, Provenance provenance) {
    return new Candidate(r.id(), CandidateKind.RECORD, r.namespace(), r.text(), r.session(),
        r.evidence(), r.createdAt(), r.temporal(), r.type(), r.sourceRole(), r.entities(), r.tags(),
        score, similarity, provenance);
  }

  /** This candidate with another score. */
  public Candidate withScore(double newScore) {
    return new Candidate(id, kind, namespace, text, session, turns, mentionedAt, temporal, memoryType,
        sourceRole, entities, tags, newScore, similarity, provenance);
  }

  /**
   * Merges a repeated hit of the same candidate: the higher score and similarity win, provenance
   * and cited turns are unioned. Scores are never summed.
   */
  public Candidate mergedWith(Candidate other) {
    if (!id.equals(other.id)) {
      throw new IllegalArgumentException("cannot merge candidates with different ids");
    }
    return new Candidate(id, kind, namespace, text, session, union(turns, other.turns), mentionedAt, temporal, memoryType,
        sourceRole, entities, tags, Math.max(score, other.score), Math.max(similarity, other.similarity),
        provenance.merge(other.provenance));
  }
}
