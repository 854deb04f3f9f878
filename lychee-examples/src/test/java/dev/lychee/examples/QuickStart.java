package dev.lychee.examples;

// The README's library quick start, verbatim (QuickStartTest runs it). Keep the two identical.
// readme:begin quick-start
import dev.lychee.api.Answer;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;

public class QuickStart {
  public static void main(String[] args) {
    try (Lychee memory = Lychee.create(new OnnxEmbeddingModule(),
                                       new SqliteStoreModule(Path.of("memory.db")))) {
      memory.append("alice", "session-1", LocalDateTime.parse("2024-03-12T18:30"), List.of(
          Turn.user("Nadia", "I went to my first choir rehearsal yesterday."),
          Turn.user("Rafael", "That sounds fun. How did it go?")));
      memory.flush("alice", "session-1");               // end of session: close the open segment

      Recall recall = memory.recall("alice", "When did Nadia go to the choir rehearsal?");
      recall.evidence().forEach(e -> System.out.println(e.score() + "  " + e.text()));

      Answer answer = memory.answer("alice", "When did Nadia go to the choir rehearsal?");
      System.out.println("answer: " + answer.text());

      memory.forget("alice");                            // or forget("alice", "session-1")
    }
  }
}
// readme:end quick-start
