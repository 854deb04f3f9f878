package dev.lychee.store.sqlite;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link TwoProcessAppendTest}: appends {@code count} turns without an index
 * to one session of a shared SQLite file, one call each, and prints {@code done} when every call
 * returned.
 */
public final class AppendChild {
  static final String NS = "shared";
  static final String SESSION = "s";

  private AppendChild() {}

  public static void main(String[] args) {
    Path db = Path.of(args[0]);
    String writer = args[1];
    int count = Integer.parseInt(args[2]);
    try (RecordStore store = SqliteRecordStore.open(db, SqliteStoreConfig.defaults())) {
      for (int i = 0; i < count; i++) {
        String text = writer + " turn " + i;
        List<RawTurn> added = store.appendTurns(NS, SESSION,
            next -> List.of(new RawTurn(NS, new TurnRef(SESSION, next), Role.USER, writer, text, null)));
        if (added.size() != 1) {
          System.out.println("lost " + text);
        }
      }
    }
    System.out.println("done");
  }
}
