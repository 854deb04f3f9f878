package dev.lychee.store.sqlite;

import com.google.inject.Module;
import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link CrashTest}'s facade round: drives {@link Lychee} over the SQLite
 * module (offline encoder, per-exchange segmenter, so that segments close and encode all the time)
 * and reports every returned {@code append} on stdout as {@code T <last index>}.
 */
public final class FacadeCrashChild {
  static final String NS = "agent";
  static final String SESSION = "s";
  static final int BATCH = 4;

  private FacadeCrashChild() {}

  static Lychee open(Path db) {
    Module embedder = b -> b.bind(Embedder.class).toInstance(new HashingEmbedder());
    // a killed process loses nothing a committed WAL transaction holds even without FULL sync
    SqliteStoreConfig config = SqliteStoreConfig.builder().synchronousFull(false).build();
    return Lychee.create(LycheeConfig.builder().segmenter("turn").build(), new SqliteStoreModule(db, config), embedder);
  }

  static List<Turn> batch(int b) {
    List<Turn> turns = new ArrayList<>();
    for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
      Turn t = i % 2 == 0
          ? new Turn(Role.USER, "Alice", "Yesterday I adopted a kitten named Tok" + i + " and I love hiking in the hills.", i, null)
          : new Turn(Role.ASSISTANT, null, "That is lovely, Tok" + i + " sounds like a great companion!", i, null);
      turns.add(t);
    }
    return turns;
  }

  public static void main(String[] args) {
    Path db = Path.of(args[0]);
    PrintStream out = System.out;
    Lychee lychee = open(db);
    int first = lychee.store().nextTurnIndex(NS, SESSION) / BATCH;
    LocalDateTime date = LocalDateTime.of(2024, 3, 1, 10, 0);
    for (int b = first; ; b++) {
      lychee.append(NS, SESSION, date, batch(b));
      out.println("T " + ((b + 1) * BATCH - 1));
      out.flush();
    }
  }
}
