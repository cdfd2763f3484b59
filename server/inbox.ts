import type { Message, MessageStrategy } from 'vscode-languageserver/node';

type NotificationResult = ReturnType<MessageStrategy['handleMessage']>;

/** Resolves after one turn of the event loop (the callbacks already queued run first). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The connection's message strategy that counts the protocol messages handled, so work can wait until the messages
 * already received are handled. The connection handles one queued message per turn of the event loop: after a turn
 * in which none was handled, its queue is empty.
 */
export class Inbox implements MessageStrategy {
  private handled = 0;

  handleMessage(message: Message, next: (message: Message) => NotificationResult): NotificationResult {
    this.handled++;
    return next(message);
  }

  /**
   * Resolves after a turn of the event loop in which no message was handled, or after `maxTurns` turns (a client
   * that never stops sending still gets its work done).
   */
  async quiet(maxTurns = 256): Promise<void> {
    // Each turn runs this wait before the connection's message: equal counts at two turns mean none in between.
    let seen = -1;
    for (let i = 0; i < maxTurns; i++) {
      await nextTurn();
      if (this.handled === seen) return;
      seen = this.handled;
    }
  }
}
