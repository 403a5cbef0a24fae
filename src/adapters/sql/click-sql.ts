import { BOT_DEVICE } from '../../domain/click-event.js';

/** The rows of people's clicks, as every click store filters them (bots apart: ADR 0094). */
export const PEOPLE_CLICKS = `device_class <> '${BOT_DEVICE}'`;
