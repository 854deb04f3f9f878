package dev.lychee.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChecksTest {

  @ParameterizedTest
  @ValueSource(strings = {"alice", "team/42", "Zoë", "名前", "a b", "🍒", "x\u200By"})
  void ordinaryNamesPass(String name) {
    assertThat(Checks.name(name, "namespace")).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\u200B", "\u00A0", "\uFEFF", "\u2060\u200D", " \u3000 ", "\u0301", "\u3164", "\u2800"})
  void namesOfOnlyInvisibleCharactersAreRejected(String name) {
    assertThatThrownBy(() -> Checks.name(name, "session"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("session must hold a visible character (it has only spaces or invisible characters)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\u0000b", "a\nb", "tab\t", "\u0085x", "x\u2028"})
  void controlCharactersAreRejectedWithTheirPosition(String name) {
    assertThatThrownBy(() -> Checks.name(name, "namespace"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("namespace must not contain control characters (found U+");
  }

  @Test
  void theLengthLimitIsInclusive() {
    String longest = "n".repeat(Checks.MAX_NAME_LENGTH);
    assertThat(Checks.name(longest, "namespace")).isSameAs(longest);
    assertThatThrownBy(() -> Checks.name(longest + "n", "namespace"))
        .hasMessage("namespace is 257 chars long; the limit is 256");
  }

  @Test
  void blankAndNullAndLoneSurrogates() {
    assertThatThrownBy(() -> Checks.name("", "namespace")).hasMessage("namespace must not be blank");
    assertThatThrownBy(() -> Checks.name(null, "namespace")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Checks.name("a\uD800", "session")).hasMessage("session has a lone UTF-16 surrogate at index 1");
    assertThatThrownBy(() -> Checks.wellFormed("ok \uDC00 no", "turn text"))
        .hasMessageContaining("lone UTF-16 surrogate at index 3");
    assertThat(Checks.wellFormed("pair 🍒 ok", "turn text")).isEqualTo("pair 🍒 ok");
  }

  @Test
  void questionsAreCappedAndChecked() {
    String longest = "q".repeat(Checks.MAX_QUESTION_CHARS);
    assertThat(Question.of("alice", longest).text()).hasSize(Checks.MAX_QUESTION_CHARS);
    assertThatThrownBy(() -> Question.of("alice", longest + "?"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("question is 16385 chars long; the limit is 16384");
    assertThatThrownBy(() -> Question.of("alice", "  ")).hasMessage("question text must not be blank");
    assertThatThrownBy(() -> Question.of("\u200B", "when?")).hasMessageContaining("visible character");
    assertThatThrownBy(() -> Question.of("alice", "why \uD83D?")).hasMessageContaining("lone UTF-16 surrogate");
  }

  @Test
  void turnsRejectLoneSurrogatesInTextAndSpeaker() {
    assertThatThrownBy(() -> Turn.user("Nadia", "broken \uDFFF")).hasMessageContaining("turn text has a lone");
    assertThatThrownBy(() -> Turn.user("\uD800", "fine")).hasMessageContaining("speaker has a lone");
  }
}
