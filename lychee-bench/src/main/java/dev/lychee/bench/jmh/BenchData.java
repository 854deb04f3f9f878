package dev.lychee.bench.jmh;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.MemoryType;
import dev.lychee.api.Provenance;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Deterministic synthetic inputs shared by the benches (seeded, so runs are comparable). */
final class BenchData {
  private static final String[] WORDS = {"hiking", "boots", "river", "concert", "cello", "pottery",
      "beagle", "bicycle", "support", "group", "painting", "sunrise", "camping", "festival", "school",
      "adoption", "career", "counseling", "library", "garden", "recipe", "marathon", "guitar", "museum"};

  private BenchData() {}

  static float[] unit(Random random, int dim) {
    float[] v = new float[dim];
    double norm = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }

  /** One of a small set of content words. */
  static String word(Random random) {
    return WORDS[random.nextInt(WORDS.length)];
  }

  /** A candidate: a raw turn or a record, with a few words of text, a score and one cited turn. */
  static Candidate candidate(Random random, int i, String route) {
    return candidate(random, i, route, 1);
  }

  /**
   * A candidate as {@link #candidate(Random, int, String)} makes it, except that a record cites
   * {@code recordTurns} turns: its own and, beyond it, turns of copies of its session. That is a
   * record of a namespace in which the same conversation was stored many times ({@code eval speed}'s
   * replicated namespace: 825 records cite the turns of all 100 copies at scale 100). The extra
   * turns come from their own seed, so {@code random} is drawn exactly as with one turn.
   */
  static Candidate candidate(Random random, int i, String route, int recordTurns) {
    int session = 1 + random.nextInt(20);
    int turn = random.nextInt(30);
    StringBuilder text = new StringBuilder("Speaker: ");
    for (int w = 0; w < 12; w++) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    boolean record = i % 3 == 0;
    return new Candidate(record ? "rec-" + i : "episode:D" + session + ":" + turn,
        record ? CandidateKind.RECORD : CandidateKind.RAW_TURN, "bench", text.toString().strip(), "D" + session,
        record ? turns(i, session, turn, recordTurns) : List.of(TurnRef.of("D" + session, turn)), LocalDateTime.of(2023, 5, 1, 12, 0).plusDays(session),
        TemporalScope.NONE, record ? MemoryType.FACT : null, SourceRole.USER,
        record ? List.of(WORDS[i % WORDS.length]) : List.of(), List.of(), random.nextDouble(), random.nextDouble(),
        Provenance.of("bench", "q", null, route));
  }

  /** The record's own turn and {@code n - 1} turns of copies of its session, sorted. */
  private static List<TurnRef> turns(int i, int session, int turn, int n) {
    Random copies = new Random(i);
    List<TurnRef> out = new ArrayList<>(n);
    out.add(TurnRef.of("D" + session, turn));
    for (int c = 1; c < n; c++) {
      out.add(TurnRef.of("copy" + c + "-D" + session, turn + copies.nextInt(3)));
    }
    out.sort(null);
    return out;
  }
}
