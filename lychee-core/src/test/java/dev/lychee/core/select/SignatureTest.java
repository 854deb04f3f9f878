package dev.lychee.core.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.TurnRef;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A signature's similarity is {@code min(1, session·[same] + Σ w·Jaccard)} over each facet's
 * strings, whatever ids the dictionary hands out: checked against the Jaccard indexes of plain
 * string sets over random candidates.
 */
class SignatureTest {
  private static final String[] WORDS = {"Dana", "pottery", "class", "the", "a", "marathon", "june", "it's", "ÉTÉ",
      "été", "wheel", "wheels", "7", "hours"};
  private final Random random = new Random(11);

  private String pick() {
    return WORDS[random.nextInt(WORDS.length)];
  }

  private List<String> some(String prefix, int max) {
    List<String> out = new ArrayList<>();
    for (int i = random.nextInt(max + 1); i > 0; i--) {
      out.add(prefix + pick());
    }
    return out;
  }

  private Candidate candidate(int n) {
    String session = "s" + random.nextInt(3);
    List<TurnRef> turns = new ArrayList<>();
    for (int i = random.nextInt(3); i >= 0; i--) {
      turns.add(TurnRef.of("s" + random.nextInt(3), random.nextInt(6)));
    }
    String text = String.join(random.nextBoolean() ? " " : ", ", some("", 12));
    Provenance prov = new Provenance(List.of("c"), some("", 3), some("node:", 3), List.of("r1"));
    return new Candidate("id" + n, CandidateKind.RECORD, "ns", text, session, turns, null, null, null, null,
        some(" ", 3), List.of(), .5, .5, prov);
  }

  private static double jaccard(Set<?> a, Set<?> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    Set<Object> inter = new HashSet<>(a);
    inter.retainAll(b);
    return (double) inter.size() / (a.size() + b.size() - inter.size());
  }

  private static double expected(Candidate x, Candidate y, MmrConfig w) {
    double s = (x.session().equals(y.session()) ? w.session() : 0)
        + w.entities() * jaccard(lower(x.entities(), true), lower(y.entities(), true))
        + w.queries() * jaccard(lower(x.provenance().queries(), false), lower(y.provenance().queries(), false))
        + w.nodes() * jaccard(Set.copyOf(x.provenance().nodes()), Set.copyOf(y.provenance().nodes()))
        + w.turns() * jaccard(indices(x), indices(y))
        + w.tokens() * jaccard(Terms.tokens(x.text()), Terms.tokens(y.text()));
    Set<TurnRef> refs = Set.copyOf(x.turns());
    if (w.contained() > 0 && !refs.isEmpty()) {
      Set<TurnRef> shared = new HashSet<>(refs);
      shared.retainAll(y.turns());
      s += w.contained() * shared.size() / refs.size();
    }
    return Math.min(1, s);
  }

  private static Set<String> lower(List<String> l, boolean strip) {
    return l.stream().map(v -> v.toLowerCase(Locale.ROOT)).map(v -> strip ? v.strip() : v).collect(Collectors.toSet());
  }

  private static Set<Integer> indices(Candidate c) {
    return c.turns().stream().map(TurnRef::index).collect(Collectors.toSet());
  }

  @Test
  void similarityIsTheWeightedJaccardOfEveryFacet() {
    MmrConfig w = MmrConfig.builder().contained(.2).build();
    for (int round = 0; round < 20; round++) {
      Signature.Dictionary d = new Signature.Dictionary();
      List<Candidate> pool = new ArrayList<>();
      List<Signature> sigs = new ArrayList<>();
      for (int i = 0; i < 15; i++) {
        Candidate c = candidate(i);
        pool.add(c);
        sigs.add(Signature.of(c, d));
      }
      for (int i = 0; i < pool.size(); i++) {
        for (int j = 0; j < pool.size(); j++) {
          assertThat(sigs.get(i).similarity(sigs.get(j), w))
              .as("%s vs %s", pool.get(i), pool.get(j))
              .isCloseTo(expected(pool.get(i), pool.get(j), w), org.assertj.core.data.Offset.offset(1e-12));
        }
      }
    }
  }
}
