package dev.lychee.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A typed, self-contained memory record: one atomic statement that reads correctly without the
 * dialogue it came from, with its metadata and provenance.
 *
 * <p>Records are append-only. Two records with the same {@link #text()} in one namespace are the
 * same record (same {@link #id()}); storing it again merges provenance.
 *
 * @param id SHA-256 hex of the UTF-8 text (see {@link #idFor(String)})
 * @param namespace the namespace
 * @param type the memory type
 * @param text the standalone statement, never blank
 * @param entities named entities, as the encoder wrote them
 * @param tags short topic keywords
 * @param temporal the temporal scope ({@link TemporalScope#NONE} when none)
 * @param evidence the raw turns the record cites, sorted, at least one
 * @param session the session the record was first written from
 * @param segmentId the id of the segment that first produced it
 * @param sourceRole whose words the record comes from
 * @param createdAt the session date of the source dialogue; nullable
 */
public record MemoryRecord(
    String id,
    String namespace,
    MemoryType type,
    String text,
    List<String> entities,
    List<String> tags,
    TemporalScope temporal,
    List<TurnRef> evidence,
    String session,
    String segmentId,
    SourceRole sourceRole,
    LocalDateTime createdAt) {

  public MemoryRecord {
    Checks.nonBlank(namespace, "namespace");
    Objects.requireNonNull(type, "type");
    Checks.nonBlank(text, "text");
    if (id == null || id.isBlank()) {
      id = idFor(text);
    }
    entities = List.copyOf(entities);
    tags = List.copyOf(tags);
    temporal = temporal == null ? TemporalScope.NONE : temporal;
    // marked sorted, so that every candidate made of this record takes the list as it is (round twenty-four)
    evidence = SortedTurns.sortedDistinct(evidence);
    if (evidence.isEmpty()) {
      throw new IllegalArgumentException("a record must cite at least one turn: " + text);
    }
    Checks.nonBlank(session, "session");
    segmentId = Checks.orEmpty(segmentId);
    sourceRole = sourceRole == null ? SourceRole.UNKNOWN : sourceRole;
  }

  /** {@code "<memory_type>: <text>"}, the form that record vectors are built from. */
  public String normalizedText() {
    return type.wireName() + ": " + text;
  }

  /** The record id for a statement: the lower-case SHA-256 hex digest of its UTF-8 bytes. */
  public static String idFor(String text) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

  /** This record with provenance merged from {@code other} (same id): evidence turns unioned. */
  public MemoryRecord mergedWith(MemoryRecord other) {
    if (!id.equals(other.id)) {
      throw new IllegalArgumentException("cannot merge records with different ids");
    }
    List<TurnRef> turns = new java.util.ArrayList<>(evidence);
    turns.addAll(other.evidence);
    List<String> ents = union(entities, other.entities);
    List<String> tg = union(tags, other.tags);
    return new MemoryRecord(id, namespace, type, text, ents, tg, temporal, turns, session, segmentId,
        sourceRole, createdAt);
  }

  private static List<String> union(List<String> a, List<String> b) {
    java.util.LinkedHashSet<String> s = new java.util.LinkedHashSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }
}
