import type { ArtefactJobs, GenerationJob } from '../../ports/artefact-jobs';
import { MemoryJobs } from './jobs';

/** Generation jobs in memory (decision 160). */
export class MemoryArtefactJobs extends MemoryJobs<GenerationJob> implements ArtefactJobs {}
