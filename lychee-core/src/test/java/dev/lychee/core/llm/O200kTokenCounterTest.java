package dev.lychee.core.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class O200kTokenCounterTest {

  private final O200kTokenCounter counter = new O200kTokenCounter();

  @Test
  void countsKnownStrings() {
    assertThat(counter.count("Hello, world!")).isEqualTo(4);
    assertThat(counter.count("hello world")).isEqualTo(2);
  }

  @Test
  void nullAndEmptyCountZero() {
    assertThat(counter.count(null)).isZero();
    assertThat(counter.count("")).isZero();
  }

  @Test
  void specialTokenTextIsOrdinaryText() {
    assertThat(counter.count("<|endoftext|>")).isGreaterThan(1);
  }

  @Test
  void longerTextHasMoreTokensAndCountsAreStableAcrossThreads() {
    String text = "Nadia went to the community choir rehearsal on 7 May 2023 and found it powerful. ".repeat(20);
    int expected = counter.count(text);
    assertThat(expected).isGreaterThan(counter.count("Nadia went"));
    List<Integer> counts = IntStream.range(0, 64).parallel().mapToObj(i -> new O200kTokenCounter().count(text)).toList();
    assertThat(counts).containsOnly(expected);
  }
}
