package dev.lychee.bench.locomo;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One LoCoMo sample: its sessions and its evaluated questions.
 *
 * @param sampleId for example {@code conv-26}
 * @param sessions sessions in order (counted by the {@code session_N} lists)
 * @param questions the evaluated questions (categories 1-4, cleaned evidence)
 * @param skipped category 1-4 questions left out because no gold turn survived cleaning
 */
public record LocomoConversation(
    String sampleId, List<LocomoSession> sessions, List<LocomoQuestion> questions, int skipped) {
  public LocomoConversation {
    Objects.requireNonNull(sampleId, "sampleId");
    sessions = List.copyOf(sessions);
    questions = List.copyOf(questions);
  }

  /** Every dia id of the conversation. */
  public Set<DiaId> turnIds() {
    return sessions.stream().flatMap(s -> s.turns().stream()).map(LocomoTurn::id).collect(Collectors.toSet());
  }

  /** Number of turns over all sessions. */
  public int turnCount() {
    return sessions.stream().mapToInt(s -> s.turns().size()).sum();
  }
}
