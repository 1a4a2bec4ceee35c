import { ja } from '@enishi/contract';
import { CourseImages } from '@/features/course/components/course-images';
import { Page } from '@/components/layouts/page';
import { Phrases } from '@/components/ui/phrases';

/** /course: course information as images (product.md §1, §2). */
export default function CourseRoute() {
  return (
    <Page title={ja.screens.course} lead={<Phrases text={ja.course.lead} />}>
      <CourseImages />
    </Page>
  );
}
