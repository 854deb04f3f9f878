package dev.lychee.provider.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class RedactionTest {

  @Test
  void userInfoAndSecretParametersAreMasked() {
    assertThat(Redaction.url(URI.create("https://bob:hunter22@proxy.example:8443/v1")))
        .isEqualTo("https://***@proxy.example:8443/v1");
    assertThat(Redaction.url("http://h/v1?api-key=abc&model=x&token=t1#f")).isEqualTo("http://h/v1?api-key=***&model=x&token=***#f");
    assertThat(Redaction.url("failed to reach https://k@h/x and http://u:p@g/y"))
        .isEqualTo("failed to reach https://***@h/x and http://***@g/y");
    assertThat(Redaction.url("http://localhost:11434")).isEqualTo("http://localhost:11434");
    assertThat(Redaction.url((String) null)).isNull();
  }

  @Test
  void keysAreNeverShown() {
    assertThat(Redaction.key("sk-123")).isEqualTo("***");
    assertThat(Redaction.key(" ")).isEqualTo("(none)");
    assertThat(Redaction.text("Incorrect API key provided: sk-abcdef", "sk-abcdef"))
        .isEqualTo("Incorrect API key provided: ***");
    assertThat(Redaction.text("nothing", "abc")).isEqualTo("nothing");
  }
}
