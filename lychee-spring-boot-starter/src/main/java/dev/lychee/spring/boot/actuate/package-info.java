/** Spring Boot Actuator support: the Lychee health indicator. */
package dev.lychee.spring.boot.actuate;
