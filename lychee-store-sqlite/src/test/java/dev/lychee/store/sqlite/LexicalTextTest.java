package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LexicalTextTest {
  @Test
  void userSyntaxBecomesQuotedOrTerms() {
    assertThat(LexicalText.query("support* AND \"group\" NEAR(a b) col:x"))
        .isEqualTo("\"support\" OR \"and\" OR \"group\" OR \"near\" OR \"a\" OR \"b\" OR \"col\" OR \"x\"");
    assertThat(LexicalText.query("l'été 漢字")).isEqualTo("\"l\" OR \"été\" OR \"漢\" OR \"字\"");
  }

  @Test
  void noTermsMeansNoQuery() {
    assertThat(LexicalText.query("")).isNull();
    assertThat(LexicalText.query("\"*()^:-+")).isNull();
    assertThat(LexicalText.query(null)).isNull();
  }

  @Test
  void longQueriesAreCapped() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      sb.append("w").append(i).append(' ');
    }
    assertThat(LexicalText.query(sb.toString()).split(" OR ")).hasSize(LexicalText.MAX_QUERY_TERMS);
  }

  @Test
  void documentsAreStoredAsTheSameTokens() {
    assertThat(LexicalText.document("Nadia: Went to the community+ group!")).isEqualTo("nadia went to the community group");
  }
}
