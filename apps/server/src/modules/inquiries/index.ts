// The inquiries module's public face (issue 42): requests to artists, their threads and reference pictures.
export { wireInquiries, INQUIRY_MAIL_JOB, type InquiriesModule } from './inquiries.module.js';
export { createInquiriesService, INQUIRIES_PER_DAY, referenceUrl, type InquiriesService } from './inquiries.service.js';
