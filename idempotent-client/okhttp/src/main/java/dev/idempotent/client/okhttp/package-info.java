/**
 * {@code idempotent-client} on OkHttp: {@link dev.idempotent.client.okhttp.OkHttpTransport#of(okhttp3.OkHttpClient)}
 * is the {@link dev.idempotent.client.Transport} a service passes to
 * {@code IdempotentClient.builder().transport(...)}, so its own client and interceptors carry every attempt.
 *
 * <p>Null rules: no parameter or return value in this package is null.
 */
package dev.idempotent.client.okhttp;
