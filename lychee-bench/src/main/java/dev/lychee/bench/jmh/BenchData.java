package dev.lychee.bench.jmh;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.MemoryType;
import dev.lychee.api.Provenance;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
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

  /** A candidate: a raw turn or a record, with a few words of text, a score and cited turns. */
  static Candidate candidate(Random random, int i, String route) {
    int session = 1 + random.nextInt(20);
    int turn = random.nextInt(30);
    StringBuilder text = new StringBuilder("Speaker: ");
    for (int w = 0; w < 12; w++) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    boolean record = i % 3 == 0;
    return new Candidate(record ? "rec-" + i : "episode:D" + session + ":" + turn,
        record ? CandidateKind.RECORD : CandidateKind.RAW_TURN, "bench", text.toString().strip(), "D" + session,
        List.of(TurnRef.of("D" + session, turn)), LocalDateTime.of(2023, 5, 1, 12, 0).plusDays(session),
        TemporalScope.NONE, record ? MemoryType.FACT : null, SourceRole.USER,
        record ? List.of(WORDS[i % WORDS.length]) : List.of(), List.of(), random.nextDouble(), random.nextDouble(),
        Provenance.of("bench", "q", null, route));
  }
}
