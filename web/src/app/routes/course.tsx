import { ja } from '@enishi/contract';
import { CourseImages } from '@/features/course/components/course-images';
import { Page } from '@/components/layouts/page';

/** /course: course information as images (product.md §1, §2). */
export default function CourseRoute() {
  return (
    <Page title={ja.screens.course} lead={ja.course.lead}>
      <CourseImages />
    </Page>
  );
}
