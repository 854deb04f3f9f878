package dev.lychee.api;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

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
    turns = SortedTurns.sortedDistinct(turns);
    temporal = temporal == null ? TemporalScope.NONE : temporal;
    sourceRole = sourceRole == null ? SourceRole.UNKNOWN : sourceRole;
    entities = List.copyOf(entities);
    tags = List.copyOf(tags);
    if (Double.isNaN(score)) {
      throw new IllegalArgumentException("score must not be NaN");
    }
    provenance = provenance == null ? Provenance.EMPTY : provenance;
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
    return new Candidate(id, kind, namespace, text, session, SortedTurns.union(turns, other.turns), mentionedAt, temporal, memoryType,
        sourceRole, entities, tags, Math.max(score, other.score), Math.max(similarity, other.similarity),
        provenance.merge(other.provenance));
  }
}
