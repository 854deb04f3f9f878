package dev.lychee.store.postgres;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One application instance of {@link MultiWriterProcessTest}: waits for "GO", then appends batches
 * of turns without indices to one session (the store assigns them), stores each batch as a PENDING
 * segment, writes a marker turn into a second namespace, and prints "ACK" per batch.
 *
 * <p>Arguments: url, schema, namespace, session, writer id, batches, turns per batch.
 */
public final class WriterChild {
  private WriterChild() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String ns = args[2];
    String session = args[3];
    String writer = args[4];
    int batches = Integer.parseInt(args[5]);
    int perBatch = Integer.parseInt(args[6]);
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(args[1]).maxPoolSize(2).build();
    try (PostgresRecordStore store = TestPostgres.rawStore(url, config)) {
      System.out.println("READY");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      for (int b = 0; b < batches; b++) {
        List<Turn> batch = new ArrayList<>();
        for (int i = 0; i < perBatch; i++) {
          batch.add(new Turn(Role.USER, "w" + writer, "writer " + writer + " batch " + b + " turn " + i + " lychee",
              -1, null));
        }
        List<RawTurn> stored = store.appendAssigning(ns, session, batch);
        store.putSegment(new Segment(ns, session, stored, 1, 10, CloseReason.TARGET_LENGTH, Double.NaN, Double.NaN),
            SegmentState.PENDING);
        store.appendAssigning(ns + "-other", session,
            List.of(new Turn(Role.USER, null, "elsewhere marker " + writer + " " + b, -1, null)));
        System.out.println("ACK " + b + " " + stored.get(0).index() + " " + stored.get(stored.size() - 1).index());
        System.out.flush();
      }
    }
    System.out.println("DONE");
    System.out.flush();
  }
}
